import { useId } from 'react';
import { cn } from '~/components/ui/cn';
import { Label } from '~/components/ui/label';

/** A labelled native <select>: works in GET forms before (and without) JavaScript. */
export function NativeSelect({
  label,
  options,
  className,
  ...select
}: Omit<React.ComponentProps<'select'>, 'id'> & {
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const id = useId();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className="h-10 w-full rounded-md border border-input bg-card px-3 text-base text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-1 md:text-sm"
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
