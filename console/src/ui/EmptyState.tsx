// A list with nothing in it yet: what would be here, and the way to the first one.
import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons';

export function EmptyState({ icon, children }: { icon: IconName; children: ReactNode }) {
  return (
    <div className="empty">
      <Icon name={icon} />
      {children}
    </div>
  );
}
