// The bridge to OpenEPaperLink access points (apps/bridge/README.md): programmatic API for tests
// and for a server that runs a bridge in its own process.
export type { AccessPointAdapter, AdapterHealth, TagOutcome } from './adapter';
export { parseCli, parseStation, USAGE } from './args';
export { Bridge, type BridgeOptions, startBridge } from './bridge';
export { OeplAccessPoint, type OeplOptions } from './oepl/ap';
export { OeplClient } from './oepl/client';
export { Deliveries, type DeliveryOutcome } from './oepl/delivery';
export { toJpeg } from './oepl/jpeg';
export { ledPattern } from './oepl/led';
export { colourTypeOf, type LearnedModel, mapTagType, type TypeMapping } from './oepl/models';
export type { OeplSys, OeplTag, OeplTagType } from './oepl/types';
