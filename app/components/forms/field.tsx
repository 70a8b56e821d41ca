import {
  type FieldMetadata,
  getCollectionProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from '@conform-to/react';
import type * as React from 'react';
import { PasswordInput } from '~/components/auth/password-input';
import { cn } from '~/components/ui/cn';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Textarea } from '~/components/ui/textarea';

type TextType = 'text' | 'email' | 'tel' | 'password' | 'number' | 'date';

interface FieldProps extends Omit<React.ComponentProps<'input'>, 'id' | 'name' | 'type' | 'defaultValue' | 'form'> {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  label: React.ReactNode;
  type?: TextType;
  /** A hint under the label (format, rules), read with the field. */
  hint?: string;
  /**
   * The hint under the input instead: fields side by side (expiry and CVV on a phone) keep their
   * boxes on one line however long each hint wraps.
   */
  hintBelow?: boolean;
}

/**
 * A labelled input bound to a Conform field: its French error sits under it and is tied to it by
 * aria-describedby; a password field gets the show-password toggle.
 */
export function Field({ meta, label, type = 'text', hint, hintBelow = false, className, ...rest }: FieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...input } = getInputProps(meta, { type, ariaDescribedBy: hintId });
  return (
    <div className={className ?? 'flex flex-col gap-1.5'}>
      <Label htmlFor={meta.id}>{label}</Label>
      {hint && !hintBelow ? (
        <p id={hintId} className="-mt-1 text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      {type === 'password' ? (
        <PasswordInput key={key} {...input} {...rest} />
      ) : (
        <Input key={key} {...input} {...rest} />
      )}
      {hint && hintBelow ? (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      <FieldErrorText meta={meta} />
    </div>
  );
}

/** A field's first error, under it, named by the input's aria-describedby (Conform's errorId). */
// biome-ignore lint/suspicious/noExplicitAny: any schema's field
function FieldErrorText({ meta }: { meta: FieldMetadata<any, any, any> }) {
  if (!meta.errors?.length) return null;
  return (
    <p id={meta.errorId} className="text-destructive text-sm">
      {meta.errors[0]}
    </p>
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
      <FieldErrorText meta={meta} />
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
      <FieldErrorText meta={meta} />
    </div>
  );
}

interface RadioGroupFieldProps {
  // biome-ignore lint/suspicious/noExplicitAny: any schema's field
  meta: FieldMetadata<any, any, any>;
  legend: React.ReactNode;
  /** A choice's `description`, under its label, is read after it (aria-describedby). */
  options: ReadonlyArray<{ value: string; label: React.ReactNode; description?: React.ReactNode }>;
  /**
   * `cards`: each choice in a bordered box, side by side on wide screens (settings); `list`: one per
   * line; `choices`: one bordered box per line, the chosen one highlighted (the checkout's payment).
   */
  variant?: 'cards' | 'list' | 'choices';
  /** The layout of the choices (grid or column). */
  className?: string;
  /** Told of the chosen value (to show the fields that go with it, say). */
  onValueChange?: (value: string) => void;
}

const RADIO_GROUP_LAYOUT = {
  cards: 'grid gap-2 sm:grid-cols-3',
  list: 'flex flex-col gap-1.5',
  choices: 'flex flex-col gap-2',
} as const;

const RADIO_CHOICE = {
  cards: 'flex items-center gap-2 rounded-md border border-border p-3 text-sm',
  list: 'flex items-center gap-2 text-sm',
  choices:
    'flex items-start gap-3 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5',
} as const;

/**
 * Native radio buttons bound to a Conform field, in a fieldset named by its legend, the error under
 * them: arrow keys move between them and they post without JavaScript, unlike Radix's button-based
 * radio group.
 */
export function RadioGroupField({
  meta,
  legend,
  options,
  variant = 'list',
  className,
  onValueChange,
}: RadioGroupFieldProps) {
  const radios = getCollectionProps(meta, { type: 'radio', options: options.map((option) => option.value) });
  return (
    <fieldset
      className="flex flex-col gap-1.5"
      aria-describedby={meta.errors?.length ? meta.errorId : undefined}
      aria-invalid={meta.errors?.length ? true : undefined}
    >
      <legend className={variant === 'choices' ? 'mb-2 font-semibold text-sm' : 'mb-1 font-medium text-sm'}>
        {legend}
      </legend>
      <div className={className ?? RADIO_GROUP_LAYOUT[variant]}>
        {radios.map(({ key, ...radio }, index) => {
          const option = options[index];
          const input = (
            <input
              {...radio}
              aria-describedby={option?.description ? `${radio.id}-description` : undefined}
              className={cn(
                'size-4 shrink-0 accent-primary focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2',
                option?.description && 'mt-0.5',
              )}
              onChange={(event) => onValueChange?.(event.currentTarget.value)}
            />
          );
          if (!option?.description) {
            return (
              <label key={key} htmlFor={radio.id} className={RADIO_CHOICE[variant]}>
                {input}
                {option?.label}
              </label>
            );
          }
          // The description outside the label: read after the choice's name, not as part of it.
          return (
            <div key={key} className={RADIO_CHOICE[variant]}>
              {input}
              <div className="flex flex-col gap-0.5">
                <Label htmlFor={radio.id}>{option.label}</Label>
                <p id={`${radio.id}-description`} className="text-muted-foreground">
                  {option.description}
                </p>
              </div>
            </div>
          );
        })}
      </div>
      <FieldErrorText meta={meta} />
    </fieldset>
  );
}

interface UnitFieldProps extends Omit<FieldProps, 'type' | 'hint'> {
  /** What the value counts, shown after the input and read with it (« € par photo »). */
  unit: string;
}

/** A labelled text input for a number, followed by its unit (a price, a coefficient, a number of days). */
export function UnitField({ meta, label, unit, className, ...rest }: UnitFieldProps) {
  const unitId = `${meta.id}-unit`;
  const { key, ...input } = getInputProps(meta, { type: 'text', ariaDescribedBy: unitId });
  return (
    <FieldFrame meta={meta} label={label} className={className}>
      <div className="flex items-center gap-2">
        <Input key={key} className="max-w-36 text-right tabular-nums" {...input} {...rest} />
        <span id={unitId} className="text-muted-foreground text-sm">
          {unit}
        </span>
      </div>
    </FieldFrame>
  );
}

/** The asterisk of a required field's label (the form says what it means); not read out. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="text-destructive">
      {' '}
      *
    </span>
  );
}
