import { useId } from 'react';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';

interface TextFieldProps extends Omit<React.ComponentProps<'input'>, 'id'> {
  label: string;
  /** The server's message for this field, shown under it and tied to it. */
  error?: string | null;
  hint?: string;
}

/** A labelled input with its hint and its error, both read with the field. */
export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className ?? 'flex flex-col gap-1.5'}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The first message of a field in a `fieldErrors` record. */
export function fieldError(errors: Record<string, string[] | undefined> | undefined, name: string): string | null {
  return errors?.[name]?.[0] ?? null;
}
