// mailauth's parser of tag=value header fields (DKIM-Signature among them), which its package
// does not declare: auth.ts reads the signatures' key names with it, exactly as mailauth will.
declare module 'mailauth/lib/parse-dkim-headers.js' {
  export default function parseDkimHeaders(line: string | Buffer): { parsed?: Record<string, { value?: string } | undefined> };
}
