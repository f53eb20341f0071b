// Settings > DKIM signing (ADMIN): Ed25519 signatures (RFC 8463) beside RSA. Each domain then gets an
// Ed25519 key whose record the Domains page lists; it signs once a check finds the record.
import { Link } from 'react-router';
import { Page } from '../page';
import { SettingSwitch } from '../ui/SettingSwitch';

export function SettingsDkimPage() {
  return (
    <Page title="DKIM signing">
      <p>
        Every message is signed with its domain&apos;s RSA key. Turned on, each domain also gets an Ed25519 key (RFC 8463): a smaller, faster signature
        that receivers supporting it check beside the RSA one. Publish the new record shown on the <Link to="/domains">Domains</Link> page; mail carries
        the second signature from the first check that finds it. Turned off, the Ed25519 keys stop signing and their records stay needed for the overlap.
      </p>
      <SettingSwitch
        path="/settings/dkim"
        field="dkimEd25519"
        label="Sign with Ed25519 beside RSA"
        saved={(on) => (on ? 'each domain has an Ed25519 key; publish its record on the Domains page.' : 'mail is signed with RSA only.')}
      />
    </Page>
  );
}
