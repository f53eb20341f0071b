/** An SMTP reply code with its text: what smtp-server answers for an error that carries `responseCode`. */
export class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}
