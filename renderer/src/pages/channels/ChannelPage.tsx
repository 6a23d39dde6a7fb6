import { Link, useLocation, useParams } from 'wouter';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';
import { ChannelMembers } from './ChannelMembers.js';
import { ChannelSettingsForm } from './ChannelSettingsForm.js';
import type { ChannelSummary } from './ChannelsPage.js';

/** /channels/:id: one channel's settings, subscribers and archiving. */
export function ChannelPage() {
  const api = useApi();
  const params = useParams<{ id: string }>();
  const channelId = Number(params.id);
  const [, navigate] = useLocation();
  const [confirmElement, confirm] = useConfirm();
  const archiving = useForm();
  const [data, reload] = useLoad(async () => {
    const [channels, users] = await Promise.all([
      api.channels.list.query(),
      api.users.list.query(),
    ]);
    const channel = channels.streams.find((c) => c.stream_id === channelId);
    if (!channel) throw new Error('No such channel (it may have been archived).');
    return { channel, users: users.members };
  }, [channelId]);

  const archive = async (channel: ChannelSummary) => {
    const ok = await confirm({
      title: `Archive #${channel.name}?`,
      body: 'Nobody can send to it any more, and it disappears from channel lists. Its messages are kept.',
      confirmLabel: 'Archive',
      danger: true,
    });
    if (!ok) return;
    const done = await archiving.run(async () => {
      await api.channels.archive.mutate({ channelId: channel.stream_id });
      return null;
    });
    if (done) navigate('/channels');
  };

  return (
    <>
      <p className="breadcrumb">
        <Link href="/channels">Channels</Link>
      </p>
      {confirmElement}
      <Loading loaded={data}>
        {({ channel, users }) => (
          <>
            <PageTitle title={`#${channel.name}`}>{channel.description}</PageTitle>
            <ChannelSettingsForm key={channel.stream_id} channel={channel} onSaved={reload} />
            <ChannelMembers channelId={channel.stream_id} users={users} />
            <section className="card" aria-labelledby="archive-title">
              <h2 id="archive-title">Archive</h2>
              <p className="muted">Archiving keeps the messages but closes the channel.</p>
              <button
                type="button"
                className="button danger"
                disabled={archiving.busy}
                onClick={() => archive(channel).catch((e) => alert(shownError(e).message))}
              >
                Archive #{channel.name}
              </button>
              <FormStatus form={archiving} />
            </section>
          </>
        )}
      </Loading>
    </>
  );
}
