import type { Outputs } from '../../api/client.js';
import { CopyButton } from '../../components/CopyButton.js';
import { pythonSnippet } from '../../labels.js';

type Info = Outputs['organization']['info'];

/** Where Zulip apps and scripts connect: the server's real URL, never a guess. */
export function ConnectCard({ info }: { info: Info }) {
  const snippet = pythonSnippet(info);
  return (
    <section className="card" aria-labelledby="connect-title" id="organization">
      <h2 id="connect-title">Connect</h2>
      <dl className="facts">
        <dt>URL</dt>
        <dd>
          <code>{info.url}</code> <CopyButton text={info.url} />
        </dd>
        <dt>Owner</dt>
        <dd>
          {info.ownerName} <span className="muted">&lt;{info.ownerEmail}&gt;</span>
        </dd>
        <dt>zuliprc</dt>
        <dd>
          {info.zuliprcPath ? (
            <code>{info.zuliprcPath}</code>
          ) : (
            <span className="muted">not found</span>
          )}
        </dd>
      </dl>
      <ol className="steps">
        <li>
          In the Zulip desktop or mobile app, add an organization with the URL{' '}
          <code>{info.url}</code> and log in with your e-mail and password.
        </li>
        <li>
          Scripts, bots and terminal clients read a <code>zuliprc</code> file with the e-mail, API
          key and URL{info.zuliprcPath ? ': the owner’s is shown above.' : '.'}
        </li>
      </ol>
      <div className="snippet">
        <div className="snippet-head">
          <span>Python</span>
          <CopyButton text={snippet} />
        </div>
        <pre>
          <code>{snippet}</code>
        </pre>
      </div>
    </section>
  );
}
