export { Loading } from './Loading';
export { PageContainer, type PageContainerProps } from './PageContainer';
export { RouteError } from './RouteError';
