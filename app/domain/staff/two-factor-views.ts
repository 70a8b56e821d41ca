/* What « Sécurité » shows after each step (the server builds it, the panel reads it). */

export interface TwoFactorSetupView {
  /** The QR code of the otpauth:// URI, an SVG drawn on the server. */
  qrSvg: string;
  /** The same secret in text, by groups of 4. */
  secret: string;
  /** Shown this once. */
  backupCodes: string[];
}

export interface SecurityActionData {
  intent: 'enable' | 'confirm' | 'disable' | 'policy';
  /** The rule's save: the French sentence of its outcome. */
  message?: string;
  setup?: TwoFactorSetupView;
  done?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: Conform's SubmissionResult, without importing it in the domain
  submission?: any;
}
