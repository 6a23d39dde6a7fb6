export { deleteQueue, getEvents, registerQueue } from './register.js';
