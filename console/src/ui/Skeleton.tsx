// Where a page or a part of one is loading: grey bars in the shape of what comes, and for screen
// readers a status saying what loads (the label, which is also the text tests wait on).
export function Skeleton({ label = 'Loading…', lines = 4 }: { label?: string; lines?: number }) {
  return (
    <div role="status" className="skeleton">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} aria-hidden="true" />
      ))}
    </div>
  );
}
