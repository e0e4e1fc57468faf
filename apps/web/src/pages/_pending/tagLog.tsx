import { Pending } from './Pending';

export default function PendingPage() {
  return <Pending name="eslLog" />;
}
