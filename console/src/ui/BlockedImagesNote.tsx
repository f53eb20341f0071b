// Images the preview cannot show: the console's Content-Security-Policy (src/console/serve.ts),
// which the preview's srcdoc document lives under, loads images from https:, data: and our own
// origin only. An http: image would be a blank box without a word; this says why, and what to do.
import { useMemo } from 'react';

/** The http: image addresses of an HTML document that are not of the console's own origin. */
function blockedImages(html: string): string[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const sources = [...doc.querySelectorAll('img[src]')].map((img) => img.getAttribute('src')!.trim());
  return [
    ...new Set(
      sources.filter((src) => {
        try {
          const url = new URL(src, window.location.href);
          return url.protocol === 'http:' && url.origin !== window.location.origin;
        } catch {
          return false;
        }
      }),
    ),
  ];
}

export function BlockedImagesNote({ html }: { html: string }) {
  const blocked = useMemo(() => blockedImages(html), [html]);
  if (blocked.length === 0) return null;
  return (
    <div role="note" className="note warning">
      <p>
        {blocked.length === 1 ? '1 image is' : `${blocked.length} images are`} not shown in this preview: the console loads images only from https: addresses, and{' '}
        {blocked.length === 1 ? 'its address starts' : 'their addresses start'} with http:. Many mail clients refuse or warn about them too: use an https: address or upload
        the image to the media library (the Image block of the visual editor).
      </p>
      <ul>
        {blocked.map((src) => (
          <li key={src}>
            <code>{src}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
