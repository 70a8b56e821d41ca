import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react';
import type * as React from 'react';
import { PasswordInput } from '~/components/auth/password-input';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Textarea } from '~/components/ui/textarea';

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

interface FieldFrameProps {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  label: React.ReactNode;
  hint?: string;
  className?: string;
  children: React.ReactNode;
}

/** Label, hint, control and French error, the error tied to the control (aria-describedby). */
function FieldFrame({ meta, label, hint, className, children }: FieldFrameProps) {
  return (
    <div className={className ?? 'flex flex-col gap-1.5'}>
      <Label htmlFor={meta.id}>{label}</Label>
      {hint ? (
        <p id={`${meta.id}-hint`} className="-mt-1 text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      {children}
      {meta.errors?.length ? (
        <p id={meta.errorId} className="text-destructive text-sm">
          {meta.errors[0]}
        </p>
      ) : null}
    </div>
  );
}

interface TextareaFieldProps
  extends Omit<React.ComponentProps<'textarea'>, 'id' | 'name' | 'defaultValue' | 'form' | 'className'> {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  label: React.ReactNode;
  hint?: string;
  className?: string;
}

/** A labelled textarea bound to a Conform field. */
export function TextareaField({ meta, label, hint, className, ...rest }: TextareaFieldProps) {
  const { key, ...textarea } = getTextareaProps(meta, { ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className}>
      <Textarea key={key} {...textarea} {...rest} />
    </FieldFrame>
  );
}

interface SelectFieldProps
  extends Omit<React.ComponentProps<'select'>, 'id' | 'name' | 'defaultValue' | 'form' | 'className'> {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  label: React.ReactNode;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: string;
  className?: string;
}

/** A labelled native <select> bound to a Conform field: works before (and without) JavaScript. */
export function SelectField({ meta, label, options, hint, className, ...rest }: SelectFieldProps) {
  const { key, ...select } = getSelectProps(meta, { ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className}>
      <select
        key={key}
        className="h-10 w-full rounded-md border border-input bg-card px-3 text-base text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-1 aria-invalid:border-destructive md:text-sm"
        {...select}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

interface CheckboxFieldProps
  extends Omit<React.ComponentProps<'input'>, 'id' | 'name' | 'type' | 'defaultValue' | 'defaultChecked' | 'form'> {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  label: React.ReactNode;
}

/**
 * A native checkbox bound to a Conform field (posted as « on »), its label beside it and its error
 * under it: it works without JavaScript, unlike Radix's button-based checkbox.
 */
export function CheckboxField({ meta, label, className, ...rest }: CheckboxFieldProps) {
  const { key, ...input } = getInputProps(meta, { type: 'checkbox' });
  return (
    <div className={className ?? 'flex flex-col gap-1'}>
      <div className="flex items-start gap-2">
        <input
          key={key}
          className="mt-0.5 size-5 shrink-0 rounded-sm border border-input accent-primary focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2"
          {...input}
          {...rest}
        />
        <Label htmlFor={meta.id} className="font-normal leading-snug">
          {label}
        </Label>
      </div>
      {meta.errors?.length ? (
        <p id={meta.errorId} className="text-destructive text-sm">
          {meta.errors[0]}
        </p>
      ) : null}
    </div>
  );
}
