import { sendTestWelcomeMessage } from '../../onboarding/index.js';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../../shared/limits.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** /realm/test_welcome_bot_custom_message */
export const onboardingRoutes = [
  route({
    method: 'POST',
    path: '/realm/test_welcome_bot_custom_message',
    api: '/realm/test_welcome_bot_custom_message',
    params: {
      welcome_message_custom_text: p.str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }),
    },
    handler: (ctx, user, params) =>
      sendTestWelcomeMessage(ctx, user, params.welcome_message_custom_text),
  }),
];
