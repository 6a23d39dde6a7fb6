import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { CheckField, Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

/** /realm/domains: which e-mail domains new accounts may have (when restricted). */
export function DomainsPage() {
  const api = useApi();
  const [list, reload] = useLoad(() => api.realmDomains.list.query());
  const form = useForm();
  const [domain, setDomain] = useState('');
  const [subdomains, setSubdomains] = useState(false);
  const [rowError, setRowError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = domain;
    void form.run(async () => {
      await api.realmDomains.add.mutate({ domain: sent, allowSubdomains: subdomains });
      setDomain('');
      setSubdomains(false);
      reload();
      return `Added ${sent.trim().toLowerCase()}.`;
    });
  };
  const act = (call: Promise<unknown>) => {
    setRowError(null);
    call.then(reload, (err: unknown) => setRowError(shownError(err).message));
  };

  return (
    <>
      <PageTitle title="Allowed e-mail domains">
        When the organization restricts new accounts to these domains (Organization settings), only
        addresses here may join.
      </PageTitle>
      <form
        id="add-domain-form"
        className="card"
        onSubmit={submit}
        noValidate
        aria-label="New domain"
      >
        <h2>New domain</h2>
        <Field label="Domain" name="domain" error={form.errorFor('domain')}>
          {(p) => (
            <input
              {...p}
              value={domain}
              placeholder="example.com"
              onChange={(e) => setDomain(e.target.value)}
            />
          )}
        </Field>
        <CheckField
          name="allowSubdomains"
          label="Allow subdomains too"
          checked={subdomains}
          onChange={setSubdomains}
        />
        <div className="actions">
          <button type="submit" className="button primary" disabled={form.busy}>
            Add domain
          </button>
        </div>
        <FormStatus form={form} fields={['domain']} />
      </form>
      {rowError ? (
        <p className="alert alert-error" role="alert">
          {rowError}
        </p>
      ) : null}
      <Loading loaded={list}>
        {(domains) =>
          domains.length === 0 ? (
            <p className="muted">No domains yet.</p>
          ) : (
            <ul className="member-list card" id="domains">
              {domains.map((d) => (
                <DomainRow
                  key={d.domain}
                  domain={d.domain}
                  allowSubdomains={d.allow_subdomains}
                  act={act}
                />
              ))}
            </ul>
          )
        }
      </Loading>
    </>
  );
}

/** One allowed domain; its subdomain switch shows the change at once, and undoes it on refusal. */
function DomainRow(props: {
  domain: string;
  allowSubdomains: boolean;
  act(call: Promise<unknown>): void;
}) {
  const api = useApi();
  const [checked, setChecked] = useState(props.allowSubdomains);
  return (
    <li>
      <span>{props.domain}</span>
      <span className="row-actions">
        <CheckField
          name={`subdomains-${props.domain}`}
          label={`Subdomains of ${props.domain}`}
          checked={checked}
          onChange={(allowSubdomains) => {
            setChecked(allowSubdomains);
            props.act(
              api.realmDomains.update
                .mutate({ domain: props.domain, allowSubdomains })
                .catch((err: unknown) => {
                  setChecked(!allowSubdomains);
                  throw err;
                }),
            );
          }}
        />
        <button
          type="button"
          className="button small danger"
          onClick={() => props.act(api.realmDomains.remove.mutate({ domain: props.domain }))}
        >
          Remove<span className="visually-hidden"> {props.domain}</span>
        </button>
      </span>
    </li>
  );
}
