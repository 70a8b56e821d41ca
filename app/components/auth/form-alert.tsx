import { CircleAlertIcon } from 'lucide-react';

/** The form's own error (wrong password, server refusal), read out when it appears. */
export function FormAlert({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div
      id={id}
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/30 bg-danger-tint px-3 py-2.5 text-danger-tint-foreground text-sm"
    >
      <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="flex flex-col gap-1">
        {errors.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  );
}
