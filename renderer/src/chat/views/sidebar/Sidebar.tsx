import { ChannelList } from './ChannelList.js';
import { DirectList } from './DirectList.js';
import { ViewLinks } from './ViewLinks.js';

interface SidebarProps {
  id: string;
  currentHash: string;
  activeChannelId: number | null;
  open: boolean;
  onBrowseChannels: () => void;
}

/** The left column: views, channels with their topics, direct messages. */
export function Sidebar({
  id,
  currentHash,
  activeChannelId,
  open,
  onBrowseChannels,
}: SidebarProps) {
  return (
    <nav id={id} className={open ? 'sidebar open' : 'sidebar'} aria-label="Views and channels">
      <ViewLinks currentHash={currentHash} />
      <ChannelList
        currentHash={currentHash}
        activeChannelId={activeChannelId}
        onBrowse={onBrowseChannels}
      />
      <DirectList currentHash={currentHash} />
    </nav>
  );
}
