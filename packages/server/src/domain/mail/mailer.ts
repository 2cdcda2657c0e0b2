/**
 * The port the domain sends mail through. Its implementations live outside the domain (src/mail/:
 * SMTP through nodemailer, the development log, or none) and are chosen at start-up (server.ts).
 */
export interface Mail {
  to: string;
  subject: string;
  /** The plain-text body. */
  text: string;
  /** The HTML body: every value in it escaped (messages.ts). */
  html: string;
}

export interface Mailer {
  /** Sends one mail; rejects when the transport refused it (the caller logs that, never the body). */
  send(mail: Mail): Promise<void>;
}
