import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { ConnectCard } from './ConnectCard.js';
import { JwtKeyForm } from './JwtKeyForm.js';
import { SettingsForm } from './SettingsForm.js';

export function OrganizationPage() {
  const api = useApi();
  const [info] = useLoad(() => api.organization.info.query());
  const [settings] = useLoad(() => api.organization.settings.query());
  return (
    <>
      <PageTitle title="Organization" />
      <Loading loaded={info}>{(value) => <ConnectCard info={value} />}</Loading>
      <Loading loaded={settings}>{(value) => <SettingsForm settings={value} />}</Loading>
      <JwtKeyForm />
    </>
  );
}
