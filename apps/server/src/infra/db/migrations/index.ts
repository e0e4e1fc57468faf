import type { Migration } from 'kysely';
import type { Dialect } from '../database';
import { initial } from './001_initial';
import { templates } from './002_templates';
import { business } from './003_business';
import { sessionRole } from './004_session_role';
import { platformUnique } from './005_platform_unique';
import { loginAddress } from './006_login_address';
import { stationRuntime } from './007_station_runtime';
import { templateRules } from './008_template_rules';
import { stationConfig } from './009_station_config';
import { delivery } from './010_delivery';
import { deliveryLogs } from './011_delivery_logs';
import { tagImages } from './012_tag_images';
import { openApi } from './013_open_api';
import { firmware } from './014_firmware';
import { cluster } from './015_cluster';
import { tagsSeenIndex } from './018_tags_seen_index';
import { callbacks } from './019_callbacks';
import { firmwareShared } from './020_firmware_shared';
import { taskHold } from './021_task_hold';
import { stationKind } from './022_station_kind';
import { learnedModels } from './023_learned_models';
import { schedule } from './025_schedule';
import { syslogStore } from './026_syslog_store';
import { syslogUser } from './027_syslog_user';
import { priceProof } from './028_price_proof';
import { tenantFonts } from './029_tenant_fonts';
import { problems } from './030_problems';
import { promotions } from './031_promotions';
import { labelPages } from './032_label_pages';
import { shelfNfc } from './033_shelf_nfc';
import { pageSchedules } from './034_page_schedules';
import { tagLogDetail } from './035_tag_log_detail';
import { schedulePlan } from './036_schedule_plan';
import { timedQueued } from './037_timed_queued';
import { tagsFillfactor } from './038_tags_fillfactor';
import { tagsProductGone } from './039_tags_product_gone';
import { tagsTenantHardware } from './040_tags_tenant_hardware';
import { timedRenderKey } from './041_timed_render_key';

/**
 * Numbered migrations, applied in order at start. Add a file `NNN_name.ts` exporting a factory
 * `(dialect) => Migration` and list it here; never edit one that has shipped.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001_initial': initial(dialect),
    '002_templates': templates(dialect),
    '003_business': business(dialect),
    '004_session_role': sessionRole(dialect),
    '005_platform_unique': platformUnique(dialect),
    '006_login_address': loginAddress(dialect),
    '007_station_runtime': stationRuntime(dialect),
    '008_template_rules': templateRules(dialect),
    '009_station_config': stationConfig(dialect),
    '010_delivery': delivery(dialect),
    '011_delivery_logs': deliveryLogs(dialect),
    '012_tag_images': tagImages(dialect),
    '013_open_api': openApi(dialect),
    '014_firmware': firmware(dialect),
    '015_cluster': cluster(dialect),
    '018_tags_seen_index': tagsSeenIndex(dialect),
    '019_callbacks': callbacks(dialect),
    '020_firmware_shared': firmwareShared(dialect),
    '021_task_hold': taskHold(dialect),
    '022_station_kind': stationKind(dialect),
    '023_learned_models': learnedModels(dialect),
    '025_schedule': schedule(dialect),
    '026_syslog_store': syslogStore(dialect),
    '027_syslog_user': syslogUser(dialect),
    '028_price_proof': priceProof(dialect),
    '029_tenant_fonts': tenantFonts(dialect),
    '030_problems': problems(dialect),
    '031_promotions': promotions(dialect),
    '032_label_pages': labelPages(dialect),
    '033_shelf_nfc': shelfNfc(dialect),
    '034_page_schedules': pageSchedules(dialect),
    '035_tag_log_detail': tagLogDetail(dialect),
    '036_schedule_plan': schedulePlan(dialect),
    '037_timed_queued': timedQueued(dialect),
    '038_tags_fillfactor': tagsFillfactor(dialect),
    '039_tags_product_gone': tagsProductGone(dialect),
    '040_tags_tenant_hardware': tagsTenantHardware(dialect),
    '041_timed_render_key': timedRenderKey(dialect),
  };
}
