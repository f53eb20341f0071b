// libqp (nodemailer's quoted-printable codec, the reference our encoder is tested and measured against) ships no types.
declare module 'libqp' {
  export function encode(data: Buffer | string): string;
  export function decode(text: string): Buffer;
  export function wrap(text: string, lineLength?: number): string;
}
