/** Every line break (CRLF, CR or LF) written as CRLF, as MIME has them. */
export const toCrlf = (text: string): string => text.replace(/\r\n|\r|\n/g, '\r\n');
