import type * as React from 'react';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';

export const AUTH_CHECKING = "Vérification de l'authentification...";

interface SubmitButtonProps extends Omit<React.ComponentProps<typeof Button>, 'type'> {
  pending: boolean;
  /** What the spinner says while the server answers. */
  pendingLabel?: string;
}

/** The form's submit button; while the request runs it is disabled and shows the spinner's text. */
export function SubmitButton({
  pending,
  pendingLabel = AUTH_CHECKING,
  children,
  className,
  ...props
}: SubmitButtonProps) {
  return (
    <Button
      type="submit"
      size="lg"
      className={className ?? 'w-full'}
      disabled={pending}
      aria-disabled={pending}
      {...props}
    >
      {pending ? (
        <Spinner label={pendingLabel} showLabel className="text-primary-foreground [&_svg]:text-primary-foreground" />
      ) : (
        children
      )}
    </Button>
  );
}
