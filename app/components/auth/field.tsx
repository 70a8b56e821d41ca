import { type FieldMetadata, getInputProps } from '@conform-to/react';
import type * as React from 'react';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { PasswordInput } from './password-input';

type TextType = 'text' | 'email' | 'tel' | 'password' | 'number';

interface FieldProps extends Omit<React.ComponentProps<'input'>, 'id' | 'name' | 'type' | 'defaultValue' | 'form'> {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  label: React.ReactNode;
  type?: TextType;
  /** A hint under the label (format, rules), read with the field. */
  hint?: string;
}

/**
 * A labelled input bound to a Conform field: its French error sits under it and is tied to it by
 * aria-describedby; a password field gets the show-password toggle.
 */
export function Field({ meta, label, type = 'text', hint, className, ...rest }: FieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...input } = getInputProps(meta, { type, ariaDescribedBy: hintId });
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className={className ?? 'flex flex-col gap-1.5'}>
      <Label htmlFor={meta.id}>{label}</Label>
      {hint ? (
        <p id={hintId} className="-mt-1 text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      {type === 'password' ? (
        <PasswordInput key={key} {...input} {...rest} />
      ) : (
        <Input key={key} {...input} {...rest} />
      )}
      {invalid ? (
        <p id={meta.errorId} className="text-destructive text-sm">
          {meta.errors?.[0]}
        </p>
      ) : null}
    </div>
  );
}
