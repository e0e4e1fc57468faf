// Spreadsheet formula neutralisation: the rule lives in the contract, so the console's CSV files
// and the server's workbooks mark the same texts.
export { fromSpreadsheet, toSpreadsheet } from '@esl/contract';
