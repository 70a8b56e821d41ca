import { z } from 'zod';
import { fr } from 'zod/locales';

/*
 * zod's global settings, for every schema of the app (imported by the schema modules for this
 * effect; the server imports them all at start):
 *  - no `new Function` compilation (jitless): our Content-Security-Policy has no 'unsafe-eval', so
 *    the browser would refuse and report the attempt;
 *  - its built-in messages in French: a forged post (a list where a field expects text, a value
 *    outside a checkbox's) gets "Entrée invalide…" rather than zod's English.
 */
z.config({ jitless: true });
z.config(fr());
