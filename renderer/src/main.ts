import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router.js';
import {
  type Api,
  createApi,
  errorMessage,
  insideElectron,
  isUnauthorized,
  takeAdminToken,
} from './api.js';
import { append, h, replaceChildren } from './dom.js';
import {
  BOT_TYPES,
  botTypeLabel,
  MEMBER_ROLE,
  OUTGOING_WEBHOOK,
  pythonSnippet,
  ROLES,
  roleLabel,
} from './labels.js';

type Outputs = inferRouterOutputs<AppRouter>;
type OrganizationInfo = Outputs['organization']['info'];
type UserRecord = Outputs['users']['list']['members'][number];

interface State {
  api: Api;
  org: OrganizationInfo;
  users: UserRecord[];
}

const root = () => document.getElementById('app')!;

function notice(title: string, ...body: (string | Node)[]): void {
  replaceChildren(root(), h('section', { class: 'card notice' }, h('h2', {}, title), ...body));
}

/** An alert area that shows one message at a time. */
function alertBox(kind: 'error' | 'success' = 'error') {
  const box = h('div', { class: `alert alert-${kind}`, role: 'alert', hidden: true });
  return {
    element: box,
    show(message: string) {
      replaceChildren(box, message);
      box.hidden = false;
    },
    clear() {
      replaceChildren(box);
      box.hidden = true;
    },
  };
}

function copyButton(text: () => string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'button small ghost' }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 1500);
  });
  return button;
}

function field(label: string, control: HTMLElement, hint?: string): HTMLLabelElement {
  return h(
    'label',
    { class: 'field' },
    h('span', { class: 'field-label' }, label),
    control,
    hint ? h('span', { class: 'field-hint' }, hint) : null,
  );
}

function roleSelect(selected: number, attrs: Record<string, string> = {}): HTMLSelectElement {
  const select = h('select', attrs);
  for (const role of ROLES) {
    append(
      select,
      h('option', { value: role.value, selected: role.value === selected }, role.label),
    );
  }
  return select;
}

function renderOrganization(org: OrganizationInfo): HTMLElement {
  const snippet = pythonSnippet(org);
  return h(
    'section',
    { class: 'card', id: 'organization' },
    h('h2', {}, 'Organization'),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Name'),
      h('dd', {}, org.name),
      h('dt', {}, 'URL'),
      h('dd', {}, h('code', {}, org.url)),
      h('dt', {}, 'Owner'),
      h('dd', {}, `${org.ownerName} `, h('span', { class: 'muted' }, `<${org.ownerEmail}>`)),
      h('dt', {}, 'zuliprc'),
      h(
        'dd',
        {},
        org.zuliprcPath
          ? h('code', {}, org.zuliprcPath)
          : h('span', { class: 'muted' }, 'not found'),
      ),
    ),
    h('h3', {}, 'Connect a Zulip client'),
    h(
      'ol',
      { class: 'steps' },
      h(
        'li',
        {},
        'In the Zulip desktop or mobile app, add an organization with the URL ',
        h('code', {}, org.url),
        ' and log in with your e-mail and password.',
      ),
      h(
        'li',
        {},
        'Scripts, bots and terminal clients (zulip-terminal, the Python and JavaScript bindings) read a ',
        h('code', {}, 'zuliprc'),
        org.zuliprcPath
          ? ': the owner’s is shown above.'
          : ' file with the e-mail, API key and URL.',
      ),
    ),
    h(
      'div',
      { class: 'snippet' },
      h(
        'div',
        { class: 'snippet-head' },
        h('span', {}, 'Python'),
        copyButton(() => snippet),
      ),
      h('pre', {}, h('code', {}, snippet)),
    ),
  );
}

function renderUserForm(state: State, done: (message: string) => Promise<void>): HTMLFormElement {
  const error = alertBox();
  const fullName = h('input', { name: 'full_name', required: true, autocomplete: 'off' });
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'off' });
  const password = h('input', {
    name: 'password',
    type: 'password',
    required: true,
    autocomplete: 'new-password',
  });
  const role = roleSelect(MEMBER_ROLE, { name: 'role' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Create user');
  const form = h(
    'form',
    { class: 'panel', id: 'add-user-form', hidden: true },
    h('h3', {}, 'New user'),
    error.element,
    h(
      'div',
      { class: 'grid' },
      field('Full name', fullName),
      field('E-mail', email),
      field('Password', password),
      field('Role', role),
    ),
    h('div', { class: 'panel-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.clear();
    submit.disabled = true;
    try {
      const created = await state.api.users.create.mutate({
        email: email.value,
        fullName: fullName.value,
        password: password.value,
      });
      // Roles are granted separately, where the domain checks who may grant which.
      const wanted = Number(role.value);
      if (wanted !== MEMBER_ROLE) {
        await state.api.users.update.mutate({ userId: created.user_id, role: wanted });
      }
      form.reset();
      form.hidden = true;
      await done(`Created ${fullName.value || email.value}.`);
    } catch (err) {
      error.show(errorMessage(err));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function renderBotForm(state: State, done: (message: string) => Promise<void>): HTMLFormElement {
  const error = alertBox();
  const created = h('div', { class: 'created-key', hidden: true });
  const fullName = h('input', { name: 'bot_full_name', required: true, autocomplete: 'off' });
  const shortName = h('input', {
    name: 'short_name',
    required: true,
    autocomplete: 'off',
    pattern: '[A-Za-z0-9_.+\\-]+',
  });
  const botType = h('select', { name: 'bot_type' });
  for (const type of BOT_TYPES) append(botType, h('option', { value: type.value }, type.label));
  const payloadUrl = h('input', { name: 'payload_url', type: 'url', placeholder: 'https://…' });
  const payloadField = field(
    'Payload URL',
    payloadUrl,
    'Where Hearth posts the messages this bot receives.',
  );
  payloadField.hidden = true;
  botType.addEventListener('change', () => {
    payloadField.hidden = Number(botType.value) !== OUTGOING_WEBHOOK;
    payloadUrl.required = !payloadField.hidden;
  });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Create bot');
  const form = h(
    'form',
    { class: 'panel', id: 'add-bot-form', hidden: true },
    h('h3', {}, 'New bot'),
    error.element,
    created,
    h(
      'div',
      { class: 'grid' },
      field('Name', fullName),
      field(
        'Username',
        shortName,
        `The bot's e-mail will be <username>-bot@${state.org.emailDomain}.`,
      ),
      field('Type', botType),
      payloadField,
    ),
    h('div', { class: 'panel-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.clear();
    created.hidden = true;
    submit.disabled = true;
    try {
      const type = Number(botType.value);
      const bot = await state.api.bots.create.mutate({
        fullName: fullName.value,
        shortName: shortName.value,
        botType: type,
        payloadUrl: type === OUTGOING_WEBHOOK ? payloadUrl.value : undefined,
      });
      const name = fullName.value;
      form.reset();
      payloadField.hidden = true;
      await done(`Created the bot ${name}.`);
      const email = state.users.find((u) => u.user_id === bot.user_id)?.email ?? '';
      // The key is shown this once; the table never shows keys.
      replaceChildren(
        created,
        h('strong', {}, `API key for ${email || name}`),
        h('p', { class: 'muted' }, 'Copy it now: it will not be shown again.'),
        h(
          'div',
          { class: 'key-row' },
          h('code', { id: 'new-bot-key' }, bot.api_key),
          copyButton(() => bot.api_key),
        ),
      );
      created.hidden = false;
    } catch (err) {
      error.show(errorMessage(err));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function renderUserRow(
  state: State,
  user: UserRecord,
  report: (error: string) => void,
  refresh: (message?: string) => Promise<void>,
): HTMLTableRowElement {
  const select = roleSelect(user.role, { 'aria-label': `Role of ${user.full_name}` });
  select.addEventListener('change', async () => {
    const role = Number(select.value);
    select.disabled = true;
    try {
      await state.api.users.update.mutate({ userId: user.user_id, role });
      await refresh(`${user.full_name} is now ${roleLabel(role).toLowerCase()}.`);
    } catch (err) {
      select.value = String(user.role);
      report(`Could not change the role of ${user.full_name}: ${errorMessage(err)}`);
    } finally {
      select.disabled = false;
    }
  });

  const toggle = async (button: HTMLButtonElement, activate: boolean) => {
    button.disabled = true;
    try {
      if (activate) await state.api.users.reactivate.mutate({ userId: user.user_id });
      else await state.api.users.deactivate.mutate({ userId: user.user_id });
      await refresh(`${user.full_name} was ${activate ? 'reactivated' : 'deactivated'}.`);
    } catch (err) {
      report(
        `Could not ${activate ? 'reactivate' : 'deactivate'} ${user.full_name}: ${errorMessage(err)}`,
      );
      button.disabled = false;
    }
  };
  let action: HTMLElement;
  if (!user.is_active) {
    const button = h('button', { type: 'button', class: 'button small' }, 'Reactivate');
    button.addEventListener('click', () => toggle(button, true));
    action = button;
  } else if (!user.is_bot) {
    const button = h('button', { type: 'button', class: 'button small danger' }, 'Deactivate');
    button.addEventListener('click', () => toggle(button, false));
    action = button;
  } else {
    action = h('span', { class: 'muted' }, '—');
  }

  return h(
    'tr',
    { 'data-user-id': user.user_id, class: user.is_active ? '' : 'inactive' },
    h('td', {}, h('span', { class: 'name' }, user.full_name)),
    h('td', { class: 'email' }, user.delivery_email ?? user.email),
    h('td', {}, select),
    h(
      'td',
      {},
      h(
        'span',
        { class: `badge ${user.is_active ? 'ok' : 'off'}` },
        user.is_active ? 'Active' : 'Deactivated',
      ),
    ),
    h(
      'td',
      {},
      user.is_bot ? h('span', { class: 'badge bot' }, botTypeLabel(user.bot_type)) : 'Human',
    ),
    h('td', { class: 'row-actions' }, action),
  );
}

function renderUsers(state: State): HTMLElement {
  const error = alertBox('error');
  const success = alertBox('success');
  const count = h('span', { class: 'count' });
  const body = h('tbody');

  const fill = () => {
    replaceChildren(count, String(state.users.length));
    replaceChildren(
      body,
      ...state.users.map((user) => renderUserRow(state, user, (m) => error.show(m), refresh)),
    );
  };
  const refresh = async (message?: string) => {
    error.clear();
    state.users = (await state.api.users.list.query()).members;
    fill();
    if (message) success.show(message);
    else success.clear();
  };
  const userForm = renderUserForm(state, refresh);
  const botForm = renderBotForm(state, refresh);
  const toggle = (form: HTMLFormElement, other: HTMLFormElement) => {
    form.hidden = !form.hidden;
    other.hidden = true;
    if (!form.hidden) form.querySelector('input')?.focus();
  };
  fill();
  return h(
    'section',
    { class: 'card', id: 'users' },
    h(
      'div',
      { class: 'card-head' },
      h('h2', {}, 'Users ', count),
      h(
        'div',
        { class: 'toolbar' },
        h(
          'button',
          {
            type: 'button',
            class: 'button primary',
            id: 'add-user',
            onclick: () => toggle(userForm, botForm),
          },
          'Add user',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'button',
            id: 'add-bot',
            onclick: () => toggle(botForm, userForm),
          },
          'Add bot',
        ),
      ),
    ),
    userForm,
    botForm,
    success.element,
    error.element,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { id: 'users-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Name'),
            h('th', {}, 'E-mail'),
            h('th', {}, 'Role'),
            h('th', {}, 'Status'),
            h('th', {}, 'Type'),
            h('th', {}),
          ),
        ),
        body,
      ),
    ),
  );
}

async function start(): Promise<void> {
  const electron = insideElectron();
  const token = electron ? null : takeAdminToken();
  if (!electron && !token) {
    notice(
      'Admin link needed',
      h('p', {}, 'Open the link the server printed when it started:'),
      h('pre', {}, h('code', {}, 'Admin UI: http://127.0.0.1:9991/admin/#token=…')),
    );
    return;
  }
  const api = createApi(token);
  let state: State;
  try {
    const [org, list] = await Promise.all([api.organization.info.query(), api.users.list.query()]);
    state = { api, org, users: list.members };
  } catch (err) {
    if (isUnauthorized(err)) {
      notice(
        'Admin token not accepted',
        h(
          'p',
          {},
          'The token changes every time the server starts. Use the link it printed on its latest start.',
        ),
      );
    } else {
      notice(
        'Could not load the organization',
        h('p', { class: 'alert alert-error' }, errorMessage(err)),
      );
    }
    return;
  }
  document.title = `${state.org.name} · Hearth admin`;
  replaceChildren(document.getElementById('topbar-org')!, state.org.name);
  replaceChildren(root(), renderOrganization(state.org), renderUsers(state));
}

void start();
