/** POST /register (every area's initial state) and the event-queue endpoints GET and DELETE /events. */
export { deleteQueue, getEvents, registerQueue } from './register.js';
