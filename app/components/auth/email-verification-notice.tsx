import { MailWarningIcon } from 'lucide-react';
import { Form, useNavigation } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';

/**
 * On /profile while the address is unconfirmed (docs/decisions/010): the customer may order
 * meanwhile; confirming keeps their password safe when they later sign in by magic link. The button
 * posts to /login, which sends the link again (rate limited).
 */
export function EmailVerificationNotice() {
  const navigation = useNavigation();
  const sending = navigation.state !== 'idle' && navigation.formAction === '/login';
  return (
    <Alert
      variant="warning"
      icon={MailWarningIcon}
      title="Confirmez votre adresse e-mail"
      className="p-4"
      action={
        <Form method="post" action="/login">
          <input type="hidden" name="intent" value="resend-verification" />
          <Button type="submit" variant="outline" size="sm" disabled={sending}>
            {sending ? 'Envoi…' : 'Renvoyer l’e-mail'}
          </Button>
        </Form>
      }
    >
      <p>
        Nous vous avons envoyé un lien de confirmation. Vous ne l’avez pas reçu ? Vérifiez vos courriers indésirables ou
        demandez-en un nouveau.
      </p>
    </Alert>
  );
}
