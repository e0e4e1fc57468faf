export { mayPublish, mayReceive, maySubscribe } from './acl';
export {
  type BrokerLimits,
  type BrokerLog,
  createStationBroker,
  DEFAULT_BROKER_LIMITS,
  type ListenOptions,
  type StationBroker,
  type StationBrokerOptions,
} from './broker';
export { type StationDirectory, secretMatches } from './directory';
export { type AuthFailure, type BrokerEvent, describeBrokerEvent, type SysLogLine } from './events';
