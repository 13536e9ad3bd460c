// The buy-number search form: defaults US, local, 20 (spec section 9); the area code is digits
// (2 to 5) or empty for any; at most 50 results.

import type { CountryCode, PhoneNumberType, SearchAvailablePhoneNumbersParams } from '../../api/gen/model';

export interface SearchForm {
  countryCode: CountryCode;
  type: PhoneNumberType;
  areaCode: string;
  limit: string;
}

export function searchErrors(form: SearchForm): { areaCode?: string; limit?: string } {
  const errors: { areaCode?: string; limit?: string } = {};
  const area = form.areaCode.trim();
  if (area && !/^[0-9]{2,5}$/.test(area)) errors.areaCode = '2 to 5 digits, or empty for any.';
  const limit = Number(form.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) errors.limit = 'From 1 to 50.';
  return errors;
}

export function searchParamsFromForm(form: SearchForm): SearchAvailablePhoneNumbersParams {
  const area = form.areaCode.trim();
  return { countryCode: form.countryCode, type: form.type, limit: Number(form.limit), ...(area ? { areaCode: area } : {}) };
}
