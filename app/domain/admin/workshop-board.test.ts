import { describe, expect, it } from 'vitest';
import { boardFilterSearch, columnsFor, parseBoardParams } from './workshop-board';

const params = (search: string) => parseBoardParams(new URLSearchParams(search));

describe('the workshop board’s parameters', () => {
  it('reads the filters from the address bar and ignores unknown values', () => {
    expect(params('support=vhs&livraison=usb&etiquette=oui&retour=oui&express=oui&attente=colis')).toMatchObject({
      support: 'vhs',
      delivery: 'usb',
      label: true,
      returnOriginals: true,
      express: true,
      waiting: 'colis',
      column: null,
      page: 1,
    });
    expect(params('support=cassette&livraison=pigeon&attente=rien&colonne=cave&page=3')).toMatchObject({
      support: null,
      delivery: null,
      waiting: null,
      column: null,
      page: 1,
    });
    expect(params('colonne=digitising&page=3')).toMatchObject({ column: 'digitising', page: 3 });
  });

  it('shows only the columns a waiting filter can match', () => {
    expect(columnsFor(params(''))).toHaveLength(6);
    expect(columnsFor(params('attente=etiquette'))).toEqual(['awaiting_originals']);
    expect(columnsFor(params('attente=expedition'))).toEqual(['to_ship']);
    expect(columnsFor(params('attente=expedition&colonne=received'))).toEqual([]);
  });

  it('writes the filters back without the column and the page', () => {
    expect(String(boardFilterSearch(params('support=vhs&colonne=received&page=2&express=oui')))).toBe(
      'support=vhs&express=oui',
    );
  });
});
