import type { ReactElement } from 'react';
import type { z } from 'zod';

/** What a template makes of its data: the subject and either a React Email element or ready HTML. */
export type BuiltEmail = { subject: string; replyTo?: string } & ({ element: ReactElement } | { html: string });

/** A file sent with a message (a PDF document of the contract, say). */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface TemplateDefinition<S extends z.ZodType = z.ZodType> {
  /** Checks the data when the message is queued and again when it is rendered (it comes back from JSON). */
  schema: S;
  /**
   * The data is a credential (a sign-in or reset link): the outbox replaces it with a marker once
   * the message is sent or has failed, so that no usable link stays in the database.
   */
  sensitive?: boolean;
  /**
   * Fields (strings; a dotted path reaches into an object: `sending.slipUrl`) holding a guest's private link, i.e. a bearer token: the outbox
   * stores them encrypted (sealed-data.server.ts) and the worker decrypts them only to send.
   */
  secretFields?: readonly string[];
  /**
   * A person's own message (an administrator's, « Contacter le client »): sent without
   * `Auto-Submitted: auto-generated`, which every other e-mail carries (RFC 3834: automatic replies
   * and vacation notices do not answer it).
   */
  writtenByPerson?: true;
  build(data: z.output<S>): BuiltEmail;
  /** Files made when the message is sent (documents drawn with @react-pdf/renderer, say). */
  attachments?(data: z.output<S>): Promise<EmailAttachment[]>;
}
