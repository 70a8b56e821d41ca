import axe from 'axe-core';

/*
 * The e2e tests fail a page on a serious or critical axe violation only. axe-core's impact comes
 * from the checks a rule runs: 29 of its rules (region, landmarks, heading order…) run only checks
 * whose impact is minor or moderate, so whatever they find is filtered out afterwards. They are
 * not run at all (a third of axe's time on a page, measured on /, /faq and /configurateur); the
 * list is read from axe-core's own metadata, so that an upgrade that raises a check's impact runs
 * its rule again. Should that metadata move, the list is empty: every rule runs, nothing is lost.
 */
interface AxeInternals {
  _audit?: {
    rules: { id: string; any: { id: string }[]; all: { id: string }[]; none: { id: string }[] }[];
    data: { checks: Record<string, { impact?: string } | undefined> };
  };
}

const SERIOUS = new Set(['serious', 'critical']);

function rulesBelowSerious(): string[] {
  const audit = (axe as unknown as AxeInternals)._audit;
  if (!audit?.rules || !audit.data?.checks) return [];
  return audit.rules
    .filter((rule) =>
      [...rule.any, ...rule.all, ...rule.none].every((check) => {
        const impact = audit.data.checks[check.id]?.impact;
        return impact !== undefined && !SERIOUS.has(impact);
      }),
    )
    .map((rule) => rule.id);
}

export const RULES_BELOW_SERIOUS: readonly string[] = rulesBelowSerious();
