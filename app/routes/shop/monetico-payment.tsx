import { LockIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { data } from 'react-router';
import { Button } from '~/components/ui/button';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { loadPaymentConfig } from '~/server/payments/config.server';
import { moneticoFormFor } from '~/server/payments/monetico.server';
import type { Route } from './+types/monetico-payment';

/*
 * /paiement/monetico/{reference}: hands the customer over to Monetico. Monetico's payment page is
 * reached by a form POST (version 3.0) sealed with the merchant's key, built here on the server
 * (server/payments/monetico.server.ts); the browser submits it at once, or on the button without
 * JavaScript. The outcome comes back server to server (POST /api/webhooks/monetico).
 */

export function meta() {
  return [{ title: 'Redirection vers le paiement sécurisé | Soovenirs' }, { name: 'robots', content: 'noindex' }];
}

export async function loader({ params }: Route.LoaderArgs) {
  const config = await loadPaymentConfig();
  const form = await moneticoFormFor(params.reference, config);
  if (!form) throw data(PAYMENT_MESSAGES.sessionNotFound, { status: 404 });
  return form;
}

export default function MoneticoPayment({ loaderData }: Route.ComponentProps) {
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.submit();
  }, []);
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col items-start gap-5 px-4 py-16 sm:px-6">
      <h1 className="text-title">Paiement sécurisé</h1>
      <p className="text-muted-foreground">
        Vous allez être redirigé vers la page de paiement sécurisée de notre banque (Monetico).
      </p>
      <form ref={formRef} method="post" action={loaderData.action}>
        {Object.entries(loaderData.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button type="submit" size="lg">
          <LockIcon aria-hidden="true" /> Continuer vers le paiement sécurisé
        </Button>
      </form>
    </section>
  );
}
