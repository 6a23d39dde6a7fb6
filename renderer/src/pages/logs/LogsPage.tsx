import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';

const LINE_CHOICES = [100, 200, 500, 1000] as const;

/** The newest lines of the server's log file, the latest at the bottom (scrolled into view). */
export function LogsPage() {
  const api = useApi();
  const [lines, setLines] = useState<number>(200);
  const [log, reload] = useLoad(() => api.logs.recent.query({ lines }), [lines]);
  const end = useRef<HTMLElement>(null);
  useEffect(() => {
    if (log.state === 'ready' && end.current) end.current.scrollTop = end.current.scrollHeight;
  }, [log]);
  return (
    <>
      <PageTitle title="Log">The server's recent activity: starts, requests and errors.</PageTitle>
      <div className="toolbar">
        <label htmlFor="log-lines">Lines</label>
        <select id="log-lines" value={lines} onChange={(e) => setLines(Number(e.target.value))}>
          {LINE_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="button" className="button" id="refresh-log" onClick={reload}>
          Refresh
        </button>
      </div>
      <Loading loaded={log}>
        {(recent) =>
          recent.lines.length === 0 ? (
            <p className="muted">The log is empty.</p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls; keyboard users need to reach it
            <section className="log card" ref={end} tabIndex={0} aria-label="Recent log">
              <pre id="log">{recent.lines.join('\n')}</pre>
            </section>
          )
        }
      </Loading>
    </>
  );
}
