import { useState } from 'react';
import { useChat, useChatStore, useZulipApi } from '../data/store-context.js';
import { actionFailure, reportActionError } from '../ui/action-errors.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { copyText } from '../ui/clipboard.js';
import { MenuButton, MenuItem, MenuSeparator } from '../ui/Menu.js';
import { narrowUrl } from '../ui/navigate.js';
import { ChannelColorDialog } from './ChannelColorDialog.js';

/**
 * The menu beside a channel in the sidebar (Zulip's channel popover): mark
 * as read, pin, mute, colour, copy link, unsubscribe. Every change goes to
 * the server; the sidebar follows the events.
 */
export function ChannelMenu({ channelId }: { channelId: number }) {
  const api = useZulipApi();
  const store = useChatStore();
  const sub = useChat((s) => s.subscriptions.get(channelId));
  const channel = useChat((s) => s.channels.get(channelId));
  const [dialog, setDialog] = useState<'unsubscribe' | 'color' | null>(null);
  const name = sub?.name ?? channel?.name;
  if (!name) return null;

  const run = (what: string, call: () => Promise<unknown>) =>
    void call().catch((err) => reportActionError(actionFailure(what, err)));
  const setProperty = (what: string, property: string, value: unknown) =>
    run(what, () =>
      api.call('POST', '/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: channelId, property, value }],
      }),
    );
  const narrow = [{ operator: 'channel', operand: channelId }];

  return (
    <>
      <MenuButton
        label={`Actions for #${name}`}
        items={() => (
          <>
            <MenuItem
              onSelect={() =>
                run(`mark #${name} as read`, () =>
                  api.call('POST', '/mark_stream_as_read', { stream_id: channelId }),
                )
              }
            >
              Mark all messages as read
            </MenuItem>
            {sub && (
              <>
                <MenuItem
                  onSelect={() =>
                    setProperty(
                      `${sub.pin_to_top ? 'unpin' : 'pin'} #${name}`,
                      'pin_to_top',
                      !sub.pin_to_top,
                    )
                  }
                >
                  {sub.pin_to_top ? 'Unpin channel from top' : 'Pin channel to top'}
                </MenuItem>
                <MenuItem
                  onSelect={() =>
                    setProperty(
                      `${sub.is_muted ? 'unmute' : 'mute'} #${name}`,
                      'is_muted',
                      !sub.is_muted,
                    )
                  }
                >
                  {sub.is_muted ? 'Unmute channel' : 'Mute channel'}
                </MenuItem>
                <MenuItem onSelect={() => setDialog('color')}>Change colour…</MenuItem>
              </>
            )}
            <MenuItem
              onSelect={() =>
                run('copy the link', () =>
                  copyText(narrowUrl(narrow, store.getState(), api.url('/'))),
                )
              }
            >
              Copy link to channel
            </MenuItem>
            {sub && (
              <>
                <MenuSeparator />
                <MenuItem danger onSelect={() => setDialog('unsubscribe')}>
                  Unsubscribe
                </MenuItem>
              </>
            )}
          </>
        )}
      />
      {dialog === 'unsubscribe' && (
        <ConfirmDialog
          title={`Unsubscribe from #${name}?`}
          confirmLabel="Unsubscribe"
          danger
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            run(`unsubscribe from #${name}`, () =>
              api.call('DELETE', '/users/me/subscriptions', { subscriptions: [name] }),
            );
          }}
        >
          {sub?.invite_only
            ? 'This is a private channel: once you leave, you cannot join it again unless a subscriber adds you.'
            : 'You will no longer get its messages; you can subscribe again from the channel list.'}
        </ConfirmDialog>
      )}
      {dialog === 'color' && sub && (
        <ChannelColorDialog
          channelName={name}
          color={sub.color}
          onCancel={() => setDialog(null)}
          onChoose={(color) => {
            setDialog(null);
            setProperty(`change the colour of #${name}`, 'color', color);
          }}
        />
      )}
    </>
  );
}
