/** The name of the field only robots fill in (docs/product.md, « Security »). */
export const HONEYPOT_FIELD = 'website';

/**
 * An input hidden from people (off screen, out of the tab order, hidden from assistive technology)
 * that form-filling robots tend to complete. Actions treat a filled one as a robot.
 */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={`${HONEYPOT_FIELD}-field`}>Ne pas remplir ce champ</label>
      <input
        id={`${HONEYPOT_FIELD}-field`}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}

/** True when the robots' field came back filled in. */
export function isHoneypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === 'string' && value.trim() !== '';
}
