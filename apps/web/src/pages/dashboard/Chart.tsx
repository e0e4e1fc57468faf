import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Series } from './series';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartKind = 'bar' | 'line' | 'pie';

interface Props {
  kind: ChartKind;
  series: Series;
  height?: number;
}

function optionOf(kind: ChartKind, { labels, values }: Series): echarts.EChartsCoreOption {
  if (kind === 'pie') {
    return {
      tooltip: { trigger: 'item' },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['40%', '68%'],
          center: ['50%', '45%'],
          data: labels.map((name, i) => ({ name, value: values[i] })),
        },
      ],
    };
  }
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 48, right: 16, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ type: kind, data: values, smooth: kind === 'line', areaStyle: kind === 'line' ? {} : undefined }],
  };
}

/** One echarts chart; only the chart types used here are bundled, and only once a statistic answers. */
export default function Chart({ kind, series, height = 280 }: Props) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el);
    chart.setOption(optionOf(kind, series));
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [kind, series]);

  return <div ref={ref} style={{ width: '100%', height }} />;
}
