/** Every resource of the node and its operations (the `value`s of the operation selectors). */
export type IdentityVerificationMap = {
	identification: 'createVerificationToken' | 'getStatus' | 'requestInformation';
	bank: 'createToken' | 'listTransactions';
	proofOfAddress: 'createCheck';
	aml: 'downloadProfilePdf';
	kyb: 'getAnswers' | 'deleteAnswers' | 'submitForm';
};
