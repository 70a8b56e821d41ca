import { Alert } from '~/components/ui/alert';

/** The form's own error (wrong password, server refusal), read out when it appears. */
export function FormAlert({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors || errors.length === 0) return null;
  return (
    <Alert id={id} variant="danger">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </Alert>
  );
}
