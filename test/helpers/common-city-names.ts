// Well-known cities that buyers call by a name other than the official catalog's
// (data/cities/aliases/<CC>.json "common"): a test checks each is in the data, and the buyer's city
// combobox must find each one when the common name is typed. Region and official name are the
// catalog's spellings (data/cities/<CC>.json); official countries only, so each has an official catalog.
export interface CommonCityName {
  country: string;
  region: string;
  common: string;
  official: string;
}

export const COMMON_CITY_NAMES: readonly CommonCityName[] = [
  { country: 'CO', region: 'Bogotá, D.C.', common: 'Bogotá', official: 'Bogotá, D.C.' },
  { country: 'CO', region: 'Valle del Cauca', common: 'Cali', official: 'Santiago de Cali' },
  { country: 'CO', region: 'Valle del Cauca', common: 'Buga', official: 'Guadalajara de Buga' },
  { country: 'CO', region: 'Norte de Santander', common: 'Cúcuta', official: 'San José de Cúcuta' },
  { country: 'CO', region: 'Bolívar', common: 'Cartagena', official: 'Cartagena de Indias' },
  { country: 'CO', region: 'Bolívar', common: 'Mompox', official: 'Santa Cruz de Mompox' },
  { country: 'CO', region: 'Nariño', common: 'Tumaco', official: 'San Andrés de Tumaco' },
  { country: 'CO', region: 'Tolima', common: 'Mariquita', official: 'San Sebastián de Mariquita' },
  { country: 'CO', region: 'Sucre', common: 'Tolú', official: 'Santiago de Tolú' },
  { country: 'CO', region: 'Cundinamarca', common: 'Ubaté', official: 'Villa de San Diego de Ubaté' },
  { country: 'CO', region: 'Boyacá', common: 'Güicán', official: 'Güicán de la Sierra' },
  { country: 'CO', region: 'Cauca', common: 'Piendamó', official: 'Piendamó - Tunía' },
  { country: 'CO', region: 'Cauca', common: 'El Bordo', official: 'Patía' },
  { country: 'CO', region: 'Putumayo', common: 'La Hormiga', official: 'Valle del Guamuez' },
  { country: 'CO', region: 'Antioquia', common: 'El Retiro', official: 'Retiro' },
  { country: 'CO', region: 'Cesar', common: 'Codazzi', official: 'Agustín Codazzi' },

  { country: 'MX', region: 'Quintana Roo', common: 'Cancún', official: 'Benito Juárez' },
  { country: 'MX', region: 'Quintana Roo', common: 'Playa del Carmen', official: 'Solidaridad' },
  { country: 'MX', region: 'Quintana Roo', common: 'Chetumal', official: 'Othón P. Blanco' },
  { country: 'MX', region: 'Sonora', common: 'Ciudad Obregón', official: 'Cajeme' },
  { country: 'MX', region: 'Tabasco', common: 'Villahermosa', official: 'Centro' },
  { country: 'MX', region: 'Sinaloa', common: 'Los Mochis', official: 'Ahome' },
  { country: 'MX', region: 'Chihuahua', common: 'Ciudad Juárez', official: 'Juárez' },
  { country: 'MX', region: 'Tamaulipas', common: 'Ciudad Victoria', official: 'Victoria' },
  { country: 'MX', region: 'Tamaulipas', common: 'Ciudad Mante', official: 'El Mante' },
  { country: 'MX', region: 'Coahuila de Zaragoza', common: 'Ciudad Acuña', official: 'Acuña' },
  { country: 'MX', region: 'Jalisco', common: 'Ciudad Guzmán', official: 'Zapotlán el Grande' },
  { country: 'MX', region: 'Jalisco', common: 'Tlaquepaque', official: 'San Pedro Tlaquepaque' },
  { country: 'MX', region: 'Campeche', common: 'Ciudad del Carmen', official: 'Carmen' },
  { country: 'MX', region: 'Guerrero', common: 'Acapulco', official: 'Acapulco de Juárez' },
  { country: 'MX', region: 'Guerrero', common: 'Chilpancingo', official: 'Chilpancingo de los Bravo' },
  { country: 'MX', region: 'Guerrero', common: 'Zihuatanejo', official: 'Zihuatanejo de Azueta' },
  { country: 'MX', region: 'Oaxaca', common: 'Oaxaca', official: 'Oaxaca de Juárez' },
  { country: 'MX', region: 'Oaxaca', common: 'Puerto Escondido', official: 'San Pedro Mixtepec -Dto. 22 -' },
  { country: 'MX', region: 'Oaxaca', common: 'Huatulco', official: 'Santa María Huatulco' },
  { country: 'MX', region: 'Oaxaca', common: 'Juchitán', official: 'Juchitán de Zaragoza' },
  { country: 'MX', region: 'Oaxaca', common: 'Tuxtepec', official: 'San Juan Bautista Tuxtepec' },
  { country: 'MX', region: 'Hidalgo', common: 'Pachuca', official: 'Pachuca de Soto' },
  { country: 'MX', region: 'México', common: 'Ecatepec', official: 'Ecatepec de Morelos' },
  { country: 'MX', region: 'México', common: 'Naucalpan', official: 'Naucalpan de Juárez' },
  { country: 'MX', region: 'México', common: 'Tlalnepantla', official: 'Tlalnepantla de Baz' },
  { country: 'MX', region: 'Guanajuato', common: 'Dolores Hidalgo', official: 'Dolores Hidalgo Cuna de la Independencia Nacional' },

  { country: 'PE', region: 'Áncash', common: 'Chimbote', official: 'Santa' },
  { country: 'PE', region: 'Puno', common: 'Juliaca', official: 'San Román' },
  { country: 'PE', region: 'Ucayali', common: 'Pucallpa', official: 'Coronel Portillo' },
  { country: 'PE', region: 'Madre de Dios', common: 'Puerto Maldonado', official: 'Tambopata' },
  { country: 'PE', region: 'San Martín', common: 'Tarapoto', official: 'San Martín' },
  { country: 'PE', region: 'Huánuco', common: 'Tingo María', official: 'Leoncio Prado' },
  { country: 'PE', region: 'Junín', common: 'La Merced', official: 'Chanchamayo' },
  { country: 'PE', region: 'Loreto', common: 'Iquitos', official: 'Maynas' },
  { country: 'PE', region: 'Loreto', common: 'Yurimaguas', official: 'Alto Amazonas' },
  { country: 'PE', region: 'Amazonas', common: 'Bagua Grande', official: 'Utcubamba' },
  { country: 'PE', region: 'Lima', common: 'Huacho', official: 'Huaura' },
  { country: 'PE', region: 'Ayacucho', common: 'Ayacucho', official: 'Huamanga' },
  { country: 'PE', region: 'Pasco', common: 'Cerro de Pasco', official: 'Pasco' },

  { country: 'EC', region: 'Pastaza', common: 'Puyo', official: 'Pastaza' },
  { country: 'EC', region: 'Morona Santiago', common: 'Macas', official: 'Morona' },
  { country: 'EC', region: 'Orellana', common: 'El Coca', official: 'Francisco de Orellana' },
  { country: 'EC', region: 'Pichincha', common: 'Sangolquí', official: 'Rumiñahui' },

  { country: 'PY', region: 'San Pedro', common: 'Santaní', official: 'San Estanislao' },
  { country: 'PY', region: 'Caaguazú', common: 'Campo 9', official: 'Dr. J. Eulogio Estigarribia' },
];
