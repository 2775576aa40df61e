/**
 * The settings screen's cards and fields, made from the server's settings catalogue
 * (src/common/settings: each setting's rule, label and help, and the cards that group them), so
 * the screen re-types no range, length or right. A value the rule refuses still comes back as a
 * 400 naming the field and is shown under it.
 */
import { SETTING_CARDS, settingField, type SettingField } from "../../../../common/settings/form";

export type FieldDef = SettingField;

export interface CardDef {
  id: string;
  title: string;
  intro: string;
  fields: FieldDef[];
}

export const CARDS: CardDef[] = SETTING_CARDS.map(({ keys, ...card }) => ({ ...card, fields: keys.map(settingField) }));
