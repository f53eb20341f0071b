// Settings > Tracking (ADMIN): open and click tracking of TRANSACTIONAL mail (the CLI's `project
// tracking` setting); marketing, campaign and workflow mail is always tracked.
import { Page } from '../page';
import { SettingSwitch } from '../ui/SettingSwitch';

export function SettingsTrackingPage() {
  return (
    <Page title="Tracking">
      <p>
        Marketing, campaign and workflow mail is always tracked: its links pass through a redirect that counts clicks, and a one-pixel image counts opens.
        Transactional mail (receipts, password resets) is not, unless you turn it on here.
      </p>
      <SettingSwitch
        path="/settings/tracking"
        field="trackTransactional"
        label="Track opens and clicks of transactional mail"
        saved={(on) => `transactional mail sent from now on is ${on ? '' : 'not '}tracked.`}
      />
    </Page>
  );
}
