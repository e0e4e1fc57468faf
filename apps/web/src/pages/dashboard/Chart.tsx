import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendPlainComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { FONT_FAMILY } from '../../platform/theme';

// Only what the dashboard draws: bars, lines, pies with a grid, a plain legend and tooltips
// (the scrolling legend is left out: it costs bundle size the dashboard route does not have).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendPlainComponent, TooltipComponent, CanvasRenderer]);

interface Props {
  /** Built by the pure functions of charts.ts. */
  option: echarts.EChartsCoreOption;
  height?: number;
  testId?: string;
}

/** One echarts chart, loaded with the dashboard's statistics only once one has numbers to draw. */
export default function Chart({ option, height = 280, testId }: Props) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el);
    // Canvas text does not inherit the page's font: without it Chinese draws as empty boxes on a
    // machine whose only CJK font is the shipped one.
    chart.setOption({ textStyle: { fontFamily: FONT_FAMILY }, ...option });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [option]);

  return <div ref={ref} data-testid={testId} style={{ width: '100%', height }} />;
}
