import { LABEL_SOURCE_LABELS, type TagLabel } from '@esl/contract';
import { Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The template a tag shows and the rule that chose it (docs/TEMPLATES.md, "Which template a tag
 * shows"): the template's name, and under it where it comes from; a rule passed over because its
 * template no longer fits the tag is counted in the tooltip.
 */
export function LabelCell({ label }: { label: TagLabel }) {
  const { t, i18n } = useTranslation('tags');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const source = LABEL_SOURCE_LABELS[label.source][lang];
  const skipped = label.skipped.length ? t('label.skipped', { count: label.skipped.length }) : undefined;
  return (
    <Tooltip title={skipped}>
      <Space orientation="vertical" size={0} data-label-source={label.source}>
        {label.templateId === null ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Typography.Text ellipsis style={{ maxWidth: 180 }}>
            {label.templateName}
          </Typography.Text>
        )}
        <Typography.Text type={skipped ? 'warning' : 'secondary'} style={{ fontSize: 12 }}>
          {source}
        </Typography.Text>
      </Space>
    </Tooltip>
  );
}
