import { Navigate, useLocation, useParams } from 'react-router';

/**
 * /redirect/<path>: leaving the page for a moment and coming back remounts it, which is how
 * the tags view's Refresh, the size selector and the store switcher reload a view.
 */
export default function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={`/${rest}${search}${hash}`} replace />;
}
