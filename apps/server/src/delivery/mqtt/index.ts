export { type ClientPortOptions, connectClientPort } from './client';
export { inProcessPort } from './inprocess';
export type { MqttHandler, MqttMessage, MqttPort, PublishOptions, SubscribeOptions, Unsubscribe } from './port';
