import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { Loading } from '../../components/Loading.js';
import { MemberEditor } from '../../components/MemberEditor.js';

type Account = Outputs['users']['list']['members'][number];

/** Who is subscribed; adding and removing others as POST/DELETE /users/me/subscriptions do. */
export function ChannelMembers({ channelId, users }: { channelId: number; users: Account[] }) {
  const api = useApi();
  const [members, reload] = useLoad(() => api.channels.members.query({ channelId }), [channelId]);
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Subscribers</h2>
      <Loading loaded={members}>
        {({ subscribers }) => (
          <MemberEditor
            noun="subscriber"
            listId="channel-members"
            memberIds={subscribers}
            people={users}
            add={(userId) =>
              api.channels.addMembers.mutate({ channelId, userIds: [userId] }).then(reload)
            }
            remove={(userId) =>
              api.channels.removeMembers.mutate({ channelId, userIds: [userId] }).then(reload)
            }
          />
        )}
      </Loading>
    </section>
  );
}
