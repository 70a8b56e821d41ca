import { EyeIcon, EyeOffIcon } from 'lucide-react';
import type * as React from 'react';
import { useState } from 'react';
import { Input } from '~/components/ui/input';

/**
 * A password input with a show-password toggle. Before JavaScript loads it is a plain password
 * input; the toggle is a real button with a French name and a pressed state.
 */
export function PasswordInput({ type: _type, className, ...props }: React.ComponentProps<'input'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input {...props} type={visible ? 'text' : 'password'} className={className ? `pr-11 ${className}` : 'pr-11'} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label="Afficher le mot de passe"
        aria-pressed={visible}
        aria-controls={props.id}
        className="absolute inset-y-0 right-0 inline-flex w-11 items-center justify-center rounded-r-md text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring focus-visible:-outline-offset-2"
      >
        {visible ? (
          <EyeOffIcon className="size-5" aria-hidden="true" />
        ) : (
          <EyeIcon className="size-5" aria-hidden="true" />
        )}
      </button>
    </div>
  );
}
