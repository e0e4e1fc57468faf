import { ApiOutlined } from '@ant-design/icons';
import type { TestStationApData } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../../platform/request';
import { AP_URL } from './body';

/**
 * "Test connection" beside an AP address: the server reads the AP's /sysinfo (3 s) and this says
 * what it found, or why it could not, in the user's language.
 */
export function ApTest() {
  const { t } = useTranslation('stations');
  const form = Form.useFormInstance();
  const apUrl: string | undefined = Form.useWatch('apUrl', form);
  const test = useMutation({ mutationFn: (url: string) => request('testStationAp', { apUrl: url.trim() }) });
  const valid = AP_URL.test(apUrl ?? '');
  const result = test.data && test.variables?.trim() === apUrl?.trim() ? test.data : null;
  return (
    <Form.Item style={{ marginTop: -8 }}>
      <Button
        icon={<ApiOutlined />}
        disabled={!valid}
        loading={test.isPending}
        data-testid="ap-test"
        onClick={() => test.mutate(apUrl ?? '')}
      >
        {t('oepl.test')}
      </Button>
      {result && <ApTestResult result={result} />}
    </Form.Item>
  );
}

function ApTestResult({ result }: { result: TestStationApData }) {
  const { t } = useTranslation('stations');
  if (result.ok) {
    const what = [result.alias && `“${result.alias}”`, result.firmware && t('oepl.firmware', { v: result.firmware })]
      .filter(Boolean)
      .join(t('oepl.separator'));
    return (
      <Alert
        data-testid="ap-test-result"
        style={{ marginTop: 8 }}
        type="success"
        showIcon
        message={t('oepl.found', { what: what || t('oepl.unnamed'), ms: result.ms })}
      />
    );
  }
  return (
    <Alert
      data-testid="ap-test-result"
      style={{ marginTop: 8 }}
      type="error"
      showIcon
      message={t(`oepl.failure.${result.failure ?? 'unreachable'}`, { status: result.status ?? '' })}
    />
  );
}
