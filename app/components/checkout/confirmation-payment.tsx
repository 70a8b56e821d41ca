import { BanknoteIcon, CircleCheckIcon, ClockIcon, LoaderCircleIcon, RefreshCwIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation, useRevalidator } from 'react-router';
import {
  CONFIRMATION_POLL_INTERVAL_MS,
  CONFIRMATION_POLL_MAX_MS,
  CONFIRMATION_TEXT,
  type ConfirmationPaymentState,
} from '~/domain/payments/confirmation';
import type { PaymentInstructions } from '~/domain/payments/offline';

/*
 * The payment part of /confirmation: its state in one live region (paid, being confirmed, to pay)
 * and, for a transfer or a cheque, how to pay.
 */

const TONES = {
  paid: 'border-success-tint-border bg-success-tint text-success-tint-foreground',
  waiting: 'border-warning-tint-border bg-warning-tint text-warning-tint-foreground',
  confirming: 'border-info-tint-border bg-info-tint text-info-tint-foreground',
} as const;

/**
 * Reloads the page's data every few seconds while `active`, for a minute at most; returns true
 * once it gave up. The gateway's notification is what pays the order: the page only asks again.
 */
function useConfirmationPolling(active: boolean): boolean {
  const revalidator = useRevalidator();
  const latest = React.useRef(revalidator);
  latest.current = revalidator;
  const [gaveUp, setGaveUp] = React.useState(false);
  React.useEffect(() => {
    if (!active) return;
    const startedAt = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - startedAt >= CONFIRMATION_POLL_MAX_MS) {
        clearInterval(timer);
        setGaveUp(true);
        return;
      }
      if (latest.current.state === 'idle') void latest.current.revalidate();
    }, CONFIRMATION_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active]);
  return gaveUp;
}

export function PaymentStatusBanner({ state }: { state: ConfirmationPaymentState }) {
  const location = useLocation();
  const gaveUp = useConfirmationPolling(state.kind === 'confirming');
  if (state.kind === 'confirming') {
    return (
      <div role="status" className={`flex items-start gap-3 rounded-lg border p-4 ${TONES.confirming}`}>
        {gaveUp ? (
          <ClockIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        ) : (
          <LoaderCircleIcon className="mt-0.5 size-5 shrink-0 animate-spin" aria-hidden="true" />
        )}
        <div className="flex flex-col gap-1">
          <p className="font-semibold">{CONFIRMATION_TEXT.confirmingTitle}</p>
          <p>{gaveUp ? CONFIRMATION_TEXT.confirmingLate : CONFIRMATION_TEXT.confirming}</p>
          {/* Without JavaScript (or after the minute), the customer asks again by hand. */}
          <Link
            to={`${location.pathname}${location.search}`}
            reloadDocument
            className="inline-flex w-fit items-center gap-1.5 font-medium underline underline-offset-4"
          >
            <RefreshCwIcon className="size-4" aria-hidden="true" />
            Actualiser
          </Link>
        </div>
      </div>
    );
  }
  const paid = state.kind === 'paid';
  return (
    <div role="status" className={`flex items-start gap-3 rounded-lg border p-4 ${paid ? TONES.paid : TONES.waiting}`}>
      {paid ? (
        <CircleCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      ) : (
        <ClockIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      )}
      <p>
        {paid
          ? CONFIRMATION_TEXT.paid
          : state.kind === 'offline'
            ? CONFIRMATION_TEXT.offline
            : state.kind === 'closed'
              ? CONFIRMATION_TEXT.closed
              : CONFIRMATION_TEXT.unpaid}
      </p>
    </div>
  );
}

/** How to pay by transfer or cheque: the same words as the e-mail (app/domain/payments/offline.ts). */
export function PaymentInstructionsBlock({ instructions }: { instructions: PaymentInstructions }) {
  return (
    <section
      aria-labelledby="payment-instructions-title"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="payment-instructions-title" className="flex items-center gap-2 font-semibold text-lg">
        <BanknoteIcon className="size-5 text-primary" aria-hidden="true" />
        {instructions.title}
      </h2>
      <p>{instructions.intro}</p>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        {instructions.details.map((detail) => (
          <div key={detail.label} className="contents">
            <dt className="text-muted-foreground text-sm">{detail.label}</dt>
            <dd className="break-words font-medium text-sm">{detail.value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-muted-foreground text-sm">{instructions.outro}</p>
    </section>
  );
}
