import { ErrorPage } from './ErrorPage';

export default function ForbiddenPage() {
  return <ErrorPage status={401} />;
}
