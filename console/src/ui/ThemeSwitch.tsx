// The theme switch: a toggle button "Dark theme", pressed while the console is dark (the system's
// theme until someone presses it; see theme.ts).
import { chooseTheme, useTheme } from '../theme';
import { Icon } from './icons';

export function ThemeSwitch() {
  const theme = useTheme();
  const dark = theme === 'dark';
  return (
    <button type="button" className="ghost icon" aria-pressed={dark} aria-label="Dark theme" title={dark ? 'Dark theme (press for light)' : 'Dark theme'} onClick={() => chooseTheme(dark ? 'light' : 'dark')}>
      <Icon name={dark ? 'moon' : 'sun'} />
    </button>
  );
}
