// The colour theme: the system's unless this browser chose one (localStorage). The choice is the
// root's data-theme, which the tokens read as color-scheme (styles/tokens.css). Choosing what the
// system has anyway forgets the choice, so the console follows the system again.
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

const KEY = 'postmill.theme';
const CHANGED = 'postmill-theme';
const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)');

export function storedTheme(): Theme | null {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

export function applyTheme(theme: Theme | null): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

export function chooseTheme(theme: Theme): void {
  const system: Theme = systemDark().matches ? 'dark' : 'light';
  if (theme === system) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, theme);
  applyTheme(storedTheme());
  window.dispatchEvent(new Event(CHANGED));
}

const currentTheme = (): Theme => storedTheme() ?? (systemDark().matches ? 'dark' : 'light');

function subscribe(onChange: () => void) {
  const media = systemDark();
  media.addEventListener('change', onChange);
  window.addEventListener(CHANGED, onChange);
  // another tab chose
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return;
    applyTheme(storedTheme());
    onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    media.removeEventListener('change', onChange);
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** The theme in effect: the chosen one, else the system's (it follows a change of the system's). */
export const useTheme = (): Theme => useSyncExternalStore(subscribe, currentTheme);
